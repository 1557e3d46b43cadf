import { endianness } from 'node:os';
import { UserError } from '../core/index.js';

/** Largest header accepted, as the reference implementation (100 MB). */
export const MAX_SAFETENSORS_HEADER_BYTES = 100_000_000;

/** Float64 and Float32 tensors (what our heads store); the format names them F64 and F32. */
export type SafetensorsDtype = 'F64' | 'F32';

export interface SafetensorsTensor {
  dtype: SafetensorsDtype;
  shape: readonly number[];
  data: Float64Array | Float32Array;
}

export interface SafetensorsFile {
  tensors: Map<string, SafetensorsTensor>;
  metadata: Record<string, string>;
  /** The data section (all tensor bytes), for integrity hashes. */
  dataBytes: Uint8Array;
}

/** A file that does not follow the safetensors layout; `message` says which rule broke. */
export class SafetensorsFormatError extends UserError {}

const BYTES: Record<SafetensorsDtype, number> = { F64: 8, F32: 4 };
const littleEndianHost = endianness() === 'LE';

function tensorBytes(data: Float64Array | Float32Array): Uint8Array {
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (littleEndianHost) return bytes;
  const copy = new Uint8Array(data.byteLength);
  const view = new DataView(copy.buffer);
  data.forEach((value, index) => (data instanceof Float64Array ? view.setFloat64(index * 8, value, true) : view.setFloat32(index * 4, value, true)));
  return copy;
}

/**
 * Serialises tensors in the safetensors format (huggingface/safetensors): an unsigned 64-bit
 * little-endian header length, a JSON header mapping each name to `dtype`, `shape` and
 * `data_offsets` (plus a `__metadata__` string map), padded with spaces to a multiple of 8
 * bytes, then the little-endian tensor bytes back to back in the order given.
 *
 * @example
 * const bytes = writeSafetensors([['w', { dtype: 'F64', shape: [2], data: Float64Array.of(1, 2) }]], { format: 'x' });
 */
export function writeSafetensors(tensors: readonly [name: string, tensor: SafetensorsTensor][], metadata: Record<string, string>): Buffer {
  const header: Record<string, unknown> = { __metadata__: metadata };
  let offset = 0;
  for (const [name, tensor] of tensors) {
    const length = tensor.data.length * BYTES[tensor.dtype];
    header[name] = { dtype: tensor.dtype, shape: tensor.shape, data_offsets: [offset, offset + length] };
    offset += length;
  }
  let headerText = JSON.stringify(header);
  const headerLength = Buffer.byteLength(headerText);
  headerText += ' '.repeat((8 - ((8 + headerLength) % 8)) % 8);
  const headerBytes = Buffer.from(headerText, 'utf8');
  const out = Buffer.alloc(8 + headerBytes.length + offset);
  out.writeBigUInt64LE(BigInt(headerBytes.length), 0);
  headerBytes.copy(out, 8);
  let position = 8 + headerBytes.length;
  for (const [, tensor] of tensors) {
    out.set(tensorBytes(tensor.data), position);
    position += tensor.data.byteLength;
  }
  return out;
}

function readTensor(dtype: SafetensorsDtype, bytes: Uint8Array): Float64Array | Float32Array {
  const size = BYTES[dtype];
  const count = bytes.length / size;
  // Copy into a fresh (aligned) buffer; the file's tensor bytes need not be aligned.
  const copy = new Uint8Array(bytes);
  if (littleEndianHost) return dtype === 'F64' ? new Float64Array(copy.buffer, 0, count) : new Float32Array(copy.buffer, 0, count);
  const view = new DataView(copy.buffer);
  return dtype === 'F64' ? Float64Array.from({ length: count }, (_, index) => view.getFloat64(index * 8, true)) : Float32Array.from({ length: count }, (_, index) => view.getFloat32(index * 4, true));
}

/** Parses safetensors bytes, checking every layout rule; throws SafetensorsFormatError. */
export function readSafetensors(file: Uint8Array): SafetensorsFile {
  if (file.length < 8) throw new SafetensorsFormatError(`the file has ${file.length} bytes, fewer than the 8-byte header length`);
  const headerLength = Number(new DataView(file.buffer, file.byteOffset, 8).getBigUint64(0, true));
  if (headerLength > MAX_SAFETENSORS_HEADER_BYTES || 8 + headerLength > file.length) {
    throw new SafetensorsFormatError(`the header length ${headerLength} does not fit in a file of ${file.length} bytes`);
  }
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(file.buffer, file.byteOffset + 8, headerLength).toString('utf8'));
  } catch (error) {
    throw new SafetensorsFormatError(`the JSON header does not parse (${(error as Error).message})`);
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) throw new SafetensorsFormatError('the JSON header is not an object');
  const dataBytes = file.subarray(8 + headerLength);
  const metadata: Record<string, string> = {};
  const tensors = new Map<string, SafetensorsTensor>();
  const ranges: [number, number, string][] = [];
  for (const [name, entry] of Object.entries(header as Record<string, unknown>)) {
    if (name === '__metadata__') {
      for (const [key, value] of Object.entries((entry ?? {}) as Record<string, unknown>)) {
        if (typeof value !== 'string') throw new SafetensorsFormatError(`metadata ${key} is not a string`);
        metadata[key] = value;
      }
      continue;
    }
    const { dtype, shape, data_offsets: offsets } = (entry ?? {}) as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    if (dtype !== 'F64' && dtype !== 'F32') throw new SafetensorsFormatError(`tensor ${name} has dtype ${String(dtype)}; orchrm reads F64 and F32`);
    if (!Array.isArray(shape) || !shape.every((size) => Number.isInteger(size) && size >= 0)) throw new SafetensorsFormatError(`tensor ${name} has an invalid shape`);
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((value) => Number.isInteger(value))) throw new SafetensorsFormatError(`tensor ${name} has invalid data_offsets`);
    const [begin, end] = offsets as [number, number];
    const expected = (shape as number[]).reduce((product, size) => product * size, 1) * BYTES[dtype];
    if (begin < 0 || end < begin || end > dataBytes.length || end - begin !== expected) {
      throw new SafetensorsFormatError(`tensor ${name} spans bytes ${begin}..${end} of ${dataBytes.length}, but its shape [${(shape as number[]).join(', ')}] needs ${expected}`);
    }
    ranges.push([begin, end, name]);
    tensors.set(name, { dtype, shape: shape as number[], data: readTensor(dtype, dataBytes.subarray(begin, end)) });
  }
  // The format requires the data section to be covered exactly: no holes, no overlaps.
  ranges.sort((a, b) => a[0] - b[0]);
  let covered = 0;
  for (const [begin, end, name] of ranges) {
    if (begin !== covered) throw new SafetensorsFormatError(`tensor ${name} starts at byte ${begin}, expected ${covered} (holes or overlaps in the data)`);
    covered = end;
  }
  if (covered !== dataBytes.length) throw new SafetensorsFormatError(`the data section has ${dataBytes.length} bytes but the tensors cover ${covered}`);
  return { tensors, metadata, dataBytes };
}
