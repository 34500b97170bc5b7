// Country of a contact and calling codes of phone filters, from libphonenumber-js. The "max"
// metadata is used because the default one cannot tell countries sharing a calling code apart
// (+1 415 is US, +1 613 is CA; the small metadata answers US for both).
import { getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { SegmentFilterError } from './segment-filter-error';

/** ISO 3166-1 alpha-2 country of a digits-only phone with its country code; null when none. */
export function countryOfPhone(digits: string): string | null {
  if (!/^\d{2,17}$/.test(digits)) return null;
  return parsePhoneNumberFromString(`+${digits}`)?.country ?? null;
}

/**
 * Calling code digits of a phone filter's `countryCode`: `55`, `+55` or an ISO country (`BR`).
 * Throws on anything else, so a misspelt filter fails the sweep loudly instead of matching nobody.
 */
export function callingCodeDigits(countryCode: string): string {
  const code = countryCode.trim();
  if (/^\+?\d{1,4}$/.test(code)) return code.replace(/^\+/, '');
  const iso = code.toUpperCase();
  if (/^[A-Z]{2}$/.test(iso) && isSupportedCountry(iso)) return getCountryCallingCode(iso);
  throw new SegmentFilterError(
    `phoneFilters: countryCode "${countryCode}" is neither a calling code (e.g. 55 or +55) nor a country (e.g. BR)`,
  );
}
