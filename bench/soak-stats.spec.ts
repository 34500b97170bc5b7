import { isFlat, soakVerdict, thirds, type SoakSample } from './soak-stats';

const sample = (apiRss: number, workerRss: number, backlog = 0): SoakSample => ({
  minute: 1,
  answered: 100,
  ok: 100,
  backlog,
  apiRss,
  workerRss,
  dbMb: 0,
  growthMb: 0,
});

describe('soak verdict', () => {
  it.each([
    { xs: [1, 2, 3, 4, 5, 6], first: 1.5, last: 5.5 },
    { xs: [4], first: 4, last: 4 },
    { xs: [1, 2], first: 1, last: 2 },
  ])('thirds of $xs', ({ xs, first, last }) => {
    expect(thirds(xs)).toEqual({ first, last });
  });

  it.each([
    { first: 160, last: 165, flat: true }, // within 10 MB
    { first: 300, last: 325, flat: true }, // within 10 %
    { first: 160, last: 190, flat: false },
    { first: 160, last: 120, flat: true }, // shrinking is flat
  ])('RSS $first → $last flat: $flat', ({ first, last, flat }) => {
    expect(isFlat(first, last)).toBe(flat);
  });

  it.each([
    { rss: [160, 161, 159, 160, 162, 160], flat: 1 },
    { rss: [160, 170, 180, 190, 200, 210], flat: 0 },
  ])('growth per event and flatness over $rss', ({ rss, flat }) => {
    const { result } = soakVerdict(
      rss.map((r, i) => sample(r, 150, i)),
      2_000_000,
      1000,
      0,
    );
    expect(result).toMatchObject({
      deliveries: 600,
      ok_share: 1,
      bytes_per_event: 2000,
      rss_flat: flat,
      max_backlog: 5,
    });
  });
});
