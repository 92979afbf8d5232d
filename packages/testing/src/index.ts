// @torch-ts/testing: the OpInfo table and its runner (see op-info.ts).
