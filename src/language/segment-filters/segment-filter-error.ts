/** A segment filter the engine cannot evaluate; the message names the member and says why. */
export class SegmentFilterError extends Error {
  override readonly name = 'SegmentFilterError';
}
