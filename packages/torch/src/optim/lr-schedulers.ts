/** `torch.optim.lr_scheduler` as one namespace (`optim.lrScheduler`): lr-scheduler.ts, lr-scheduler-extra.ts and lr-scheduler-restarts.ts. */
export * from './lr-scheduler';
export * from './lr-scheduler-extra';
export * from './lr-scheduler-restarts';
