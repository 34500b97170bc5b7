// Fixture: execution ending waiting runs (it writes runs).
export const endWaits = (contactId: string) => contactId;
