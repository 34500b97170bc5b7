// Fixture: the CRM's write face, over the gateway (src/outbound/crm-gateway keeps the gateway to itself).
import { Gateway } from './crm-gateway.service';

export class CrmWrites {
  private readonly gateway = new Gateway();
  send = (text: string) => this.gateway.send(text);
}
