import * as torch from '@torch-ts/torch';
const F = torch.nn.functional;
const threads = Number(process.argv[2] ?? 1);
torch.setNumThreads(threads);
const ALL: [number[], number[], number][] = [
  [[8, 64, 56, 56], [64, 64, 3, 3], 1],
  [[8, 64, 56, 56], [64, 64, 1, 1], 0],
  [[8, 256, 14, 14], [256, 256, 3, 3], 1],
  [[8, 64, 56, 56], [256, 64, 1, 1], 0],
  [[8, 32, 56, 56], [32, 1, 3, 3], 1],
  [[8, 16, 56, 56], [16, 16, 3, 3], 1],
  [[8, 8, 32, 32], [8, 8, 3, 3], 1],
  [[1, 64, 56, 56], [64, 64, 3, 3], 1],
  [[8, 8, 56, 56], [64, 8, 3, 3], 1],
  [[8, 64, 56, 56], [8, 64, 3, 3], 1],
  [[8, 64, 28, 28], [64, 16, 3, 3], 1],
];
const pick = (process.argv[3] ?? '0,1,2,3,4').split(',').map(Number);
const shapes = pick.map((i) => ALL[i]);
function time(f: () => torch.Tensor): number {
  const ts: number[] = [];
  for (let i = 0; i < 9; i++) {
    const t0 = process.cpuUsage();
    const y = f();
    const d = process.cpuUsage(t0);
    ts.push((d.user + d.system) / 1000);
    y.dispose();
  }
  ts.sort((a, b) => a - b);
  return ts[0];
}
await new Promise((r) => setTimeout(r, 300));
for (const [xs, ws, p] of shapes) {
  const x = torch.randn(xs);
  const groups = xs[1] / ws[1];
  const w = torch.randn(ws).mul(0.1);
  const xl = x.contiguous({ memoryFormat: 'channels_last' });
  const tc = time(() => F.conv2d(x, w, { padding: p, groups }));
  const tl = time(() => F.conv2d(xl, w, { padding: p, groups }));
  const tv = time(() => {
    const a = xl.contiguous();
    const y = F.conv2d(a, w, { padding: p, groups });
    const r = y.contiguous({ memoryFormat: 'channels_last' });
    a.dispose();
    y.dispose();
    return r;
  });
  const d = F.conv2d(xl, w, { padding: p, groups }).sub(F.conv2d(x, w, { padding: p, groups })).abs().max().item();
  console.log(`${JSON.stringify(xs)}x${JSON.stringify(ws)} p${p} threads ${threads}: NCHW ${tc.toFixed(1)} ms, convert+NCHW ${tv.toFixed(1)}, NHWC ${tl.toFixed(1)} ms, ratio ${(tv / tl).toFixed(2)}x, maxdiff ${d}`);
}
process.exit(0);
