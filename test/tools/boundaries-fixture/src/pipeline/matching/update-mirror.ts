// Fixture: breaks matching-never-writes (matching loading the mirror service, which writes).
import { applyEvent } from '../contact-mirror/contact-mirror.service';

export const keep = (contact: { id: string }) => applyEvent(contact);
