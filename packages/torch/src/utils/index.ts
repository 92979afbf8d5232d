/** `torch.utils`: `data` (Dataset, TensorDataset, DataLoader, defaultCollate). */
export * as data from './data';
