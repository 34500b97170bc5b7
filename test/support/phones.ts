// Phones for contacts that tests create in the sandbox.

let phoneSeq = 0;
/**
 * A phone no fixture contact uses (the sandbox refuses a duplicate phone), unique within the test
 * process: country code 1, area 999, the pid's last three digits, then a counter.
 */
export function uniquePhone(): string {
  phoneSeq += 1;
  return `1999${String(process.pid % 1000).padStart(3, '0')}${String(phoneSeq).padStart(5, '0')}`;
}
