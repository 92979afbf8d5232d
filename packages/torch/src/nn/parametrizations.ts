/**
 * `torch.nn.utils.parametrizations` (PyTorch 2.x): weight and spectral normalisation as
 * parametrizations (Note [Parametrizations are accessor properties]). `orthogonal` is not
 * here yet.
 */
export {
  weightNormParametrization as weightNorm,
  spectralNormParametrization as spectralNorm,
  WeightNormParametrization,
  SpectralNormParametrization,
  type SpectralNormOptions,
} from './weight-norm';
