// Fixture: a ledger repository (its writes) and its row type.
export type InboxRow = { id: string };

export const markProcessed = (id: string) => id;
