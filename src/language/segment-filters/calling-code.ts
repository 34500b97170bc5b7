// Calling codes of phone filters, from libphonenumber-js (the same metadata as the mirror's country).
import { getCountryCallingCode, isSupportedCountry } from 'libphonenumber-js/max';
import { SegmentFilterError } from './segment-filter-error';

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
