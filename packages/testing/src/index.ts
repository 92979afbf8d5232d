/**
 * @torch-ts/testing: the OpInfo table, its goldens and coverage data. The vitest runner
 * (`describeOpInfo` in run-op-info.ts) is imported by suites directly, so that this entry
 * point stays free of vitest.
 */
export * from './op-info';
export { opCoverage, type CoverageRow, type CoverageStatus } from './coverage';
export { CPU_HARNESS, deviceHarness, registerDeviceHarness, type DeviceHarness } from './devices';
export { loadOpGoldens, caseId, type GoldenCase, type GoldenTensor } from './goldens';
export { readBackSync, compareReadBacks, type ReadBack } from './values';
