/**
 * The OpInfo table (src/op-info) against PyTorch's goldens (goldens/ops_*.json), on every
 * device this suite knows. A backend adds itself here by name once its harness is registered.
 */
import { OP_TABLE } from '../src/op-info';
import { describeOpInfo } from '../src/run-op-info';

describeOpInfo(OP_TABLE, ['cpu']);
