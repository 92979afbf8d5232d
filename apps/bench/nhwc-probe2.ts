import * as torch from '@torch-ts/torch';
torch.setNumThreads(1);
const x = torch.randn([8, 32, 56, 56]);
const xl = x.contiguous({ memoryFormat: 'channels_last' });
for (let i = 0; i < 5; i++) {
  let t0 = performance.now(); const a = xl.contiguous(); const t1 = performance.now();
  const b = x.contiguous({ memoryFormat: 'channels_last' }); const t2 = performance.now();
  const c = torch.nn.functional.conv2d(xl, torch.randn([32, 1, 3, 3]), { padding: 1, groups: 32 }); const t3 = performance.now();
  console.log((t1 - t0).toFixed(1), (t2 - t1).toFixed(1), (t3 - t2).toFixed(1));
  a.dispose(); b.dispose(); c.dispose();
}
process.exit(0);
