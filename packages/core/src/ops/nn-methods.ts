/** The Tensor methods of the NN family (Note [Tensor methods come from the op table]). */
export { softmax, logSoftmax } from './softmax';
export { bernoulli, bernoulli_, multinomial } from './random-extra';
