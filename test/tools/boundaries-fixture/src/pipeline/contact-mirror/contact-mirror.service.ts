// Fixture: the contacts mirror's service, with its writes.
export const applyEvent = (contact: { id: string }) => contact.id;
