export { formatTensor, formatSparseCoo, type ReprInput, type SparseReprInput } from './tensor-repr';
export {
  getPrintOptions,
  setPrintOptions,
  type PrintOptions,
  type PrintProfile,
  type SetPrintOptionsArgs,
} from './print-options';
