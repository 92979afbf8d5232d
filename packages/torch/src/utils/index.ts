/** `torch.utils`: `data` (Dataset, TensorDataset, DataLoader, defaultCollate), `checkpoint` (activation checkpointing). */
export * as data from './data';
export * as checkpoint from './checkpoint';
