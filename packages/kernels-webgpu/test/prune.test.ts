import { describe, expect, it } from 'vitest';
import { pruneWgsl } from '../src/wgsl/prune';
import { PRELUDE } from '../src/wgsl/prelude';

const fnNames = (code: string) => [...code.matchAll(/(?:^|\n)fn\s+([A-Za-z_]\w*)/g)].map((m) => m[1]);

describe('pruneWgsl (Note [Only the helpers a kernel calls are compiled])', () => {
  it('keeps the entry point, bindings and structs, and the helpers reachable from them, in order', () => {
    const src = `
enable f16;
const K = 3u; // a constant the kernel reads
const UNUSED_TABLE = array<f32, 2>(1.0, 2.0);
struct Params { w: array<vec4<u32>, 1> };
fn leaf(x: f32) -> f32 { return x + f32(K); }
fn mid(x: f32) -> f32 { /* calls { leaf } */ return leaf(x) * 2.0; }
fn unused_a(x: f32) -> f32 { return unused_b(x); }
fn unused_b(x: f32) -> f32 { return x; }
/* a block comment /* nested */ naming unused_b { */
@group(0) @binding(0) var<storage, read_write> b0: array<f32>;
@group(0) @binding(1) var<uniform> P: Params;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  // unused_a is only named in this comment
  b0[gid.x] = mid(b0[gid.x]);
}`;
    const out = pruneWgsl(src);
    expect(fnNames(out)).toEqual(['leaf', 'mid', 'main']);
    expect(out).toContain('const K = 3u;');
    expect(out).not.toContain('UNUSED_TABLE');
    expect(out).toContain('struct Params');
    expect(out).toContain('@group(0) @binding(1) var<uniform> P: Params;');
    expect(out.startsWith('enable f16;')).toBe(true);
    expect(out).not.toContain('//');
    expect(out).not.toContain('/*');
  });

  it('keeps helpers that call each other (recursion through the prelude) and drops the rest of the prelude', () => {
    const src = `${PRELUDE}
@group(0) @binding(0) var<storage, read_write> b0: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) { b0[gid.x] = exp2_f(b0[gid.x]); }`;
    const out = pruneWgsl(src);
    // exp2_f calls exp_f, which calls isnan_f; nothing else of the prelude is needed
    expect(fnNames(out).sort()).toEqual(['exp2_f', 'exp_f', 'isnan_f', 'main']);
    expect(out.length).toBeLessThan(src.length / 5);
  });

  it('returns a source without module-scope helpers unchanged but for comments', () => {
    const src = `@group(0) @binding(0) var<storage, read_write> b0: array<f32>;
@compute @workgroup_size(1) fn main() { b0[0] = 1.0; }`;
    expect(pruneWgsl(src)).toBe(src);
  });
});
