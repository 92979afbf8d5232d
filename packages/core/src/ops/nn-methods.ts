/** The Tensor methods of the NN family (Note [Tensor methods come from the op table]). */
export { bernoulli, bernoulli_, multinomial } from './random-extra';
