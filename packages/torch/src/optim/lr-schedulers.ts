/** `torch.optim.lr_scheduler` as one namespace (`optim.lrScheduler`): lr-scheduler.ts and lr-scheduler-extra.ts. */
export * from './lr-scheduler';
export * from './lr-scheduler-extra';
