export { formatTensor, type ReprInput } from './tensor-repr';
export {
  getPrintOptions,
  setPrintOptions,
  type PrintOptions,
  type PrintProfile,
  type SetPrintOptionsArgs,
} from './print-options';
