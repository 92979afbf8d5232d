/** The 1.13 goldens of complex lstsq and matrix_exp (goldens/linalg_complex_lstsq.json), for the CPU and WebGPU tests. */
import { readFileSync } from 'node:fs';

export interface Enc {
  shape: number[];
  dtype: string;
  values: number[];
}
export interface LstsqCase {
  id: string;
  dtype: 'complex64' | 'complex128';
  driver: 'gels' | 'gelsy' | 'gelsd' | 'gelss';
  rcond: number | null;
  cond: number;
  A: Enc;
  B: Enc;
  out: Enc[];
}
export interface ExpCase {
  id: string;
  dtype: 'complex64' | 'complex128';
  A: Enc;
  out: Enc;
}
export interface Grad {
  id: string;
  inputs: Enc[];
  weights: number[][];
  grads: number[][];
}
export const golden = JSON.parse(readFileSync(new URL('../goldens/linalg_complex_lstsq.json', import.meta.url), 'utf8')) as {
  lstsq: LstsqCase[];
  matrix_exp: ExpCase[];
  grads: Grad[];
  errors: Record<string, string | null>;
};
