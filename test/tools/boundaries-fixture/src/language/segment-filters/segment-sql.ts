// Fixture: the segment filters' WHERE compiler (a fragment, for repositories only).
export const segmentWhere = () => ({ sql: 'TRUE', params: [] as unknown[] });
