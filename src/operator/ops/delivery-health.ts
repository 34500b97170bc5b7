// What /health (detail) and the console ask about webhook delivery, without ops/ or console/
// importing the intake: the intake module provides this token (subscription.service.ts), which
// exists only on api processes. Looked up loosely (ModuleRef, strict: false).

export const DELIVERY_HEALTH = 'DELIVERY_HEALTH';

export interface DeliveryHealth {
  state(): Promise<{ status: string; delivering: boolean; message: string; checkedAt: string }>;
}
