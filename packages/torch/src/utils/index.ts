/** `torch.utils`: `data` (datasets, samplers, DataLoader, defaultCollate), `checkpoint` (activation checkpointing). */
export * as data from './data';
export * as checkpoint from './checkpoint';
