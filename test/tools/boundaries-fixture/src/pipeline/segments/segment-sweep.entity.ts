// Fixture: an entity beside the code that owns its table; the schema wiring may list it.
export class SegmentSweepEntity {
  id = '';
}
