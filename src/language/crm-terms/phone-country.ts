// Country of a contact from its phone, with libphonenumber-js. The "max"
// metadata is used because the default one cannot tell countries sharing a calling code apart
// (+1 415 is US, +1 613 is CA; the small metadata answers US for both).
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** ISO 3166-1 alpha-2 country of a digits-only phone with its country code; null when none. */
export function countryOfPhone(digits: string): string | null {
  if (!/^\d{2,17}$/.test(digits)) return null;
  return parsePhoneNumberFromString(`+${digits}`)?.country ?? null;
}
