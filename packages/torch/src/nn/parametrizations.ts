/**
 * `torch.nn.utils.parametrizations` (PyTorch 2.x): weight and spectral normalisation as
 * parametrizations (Note [Parametrizations are accessor properties]), and `orthogonal`
 * (Note [The orthogonal parametrization]).
 */
export {
  weightNormParametrization as weightNorm,
  spectralNormParametrization as spectralNorm,
  WeightNormParametrization,
  SpectralNormParametrization,
  type SpectralNormOptions,
} from './weight-norm';
export { orthogonal, OrthogonalParametrization, type OrthogonalMap } from './orthogonal';
