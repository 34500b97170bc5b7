// Fixture: a pure file outside the CRM contract.
export const QUEUE = 'events';
