/** `torch.autograd.forwardAd` (Note [Forward-mode AD]). */
export { dualLevel, enterDualLevel, exitDualLevel, makeDual, unpackDual, type UnpackedDual } from './forward-ad';
