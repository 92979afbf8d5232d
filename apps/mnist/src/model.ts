import * as torch from '@torch-ts/torch';

const { nn } = torch;

/**
 * The CNN of the main job: two conv blocks (conv 3x3, ReLU, 2x2 max pool) and a linear
 * classifier, as in PyTorch's MNIST example but narrower, so an epoch fits the 2-core
 * machines' budget. 28x28 -> 14x14x16 -> 7x7x32 -> 10 logits.
 */
export function makeModel(): InstanceType<typeof nn.Sequential> {
  return new nn.Sequential(
    new nn.Conv2d(1, 16, 3, { padding: 1 }),
    new nn.ReLU(),
    new nn.MaxPool2d(2),
    new nn.Conv2d(16, 32, 3, { padding: 1 }),
    new nn.ReLU(),
    new nn.MaxPool2d(2),
    new nn.Flatten(),
    new nn.Linear(32 * 7 * 7, 10),
  );
}
