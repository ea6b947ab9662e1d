import { type DecodeAnswer, type DecodeRequest, decodeSnapshot, transferOf } from '../../../streams/screenSnapshot';

/** The wall screen's snapshot worker (snapshotDecoder.ts): decodes and takes apart the snapshot off the main thread. */
self.onmessage = ({ data }: MessageEvent<DecodeRequest>) => {
  let answer: DecodeAnswer;
  try {
    answer = { id: data.id, decoded: decodeSnapshot(data.body, data.known) };
  } catch (error) {
    answer = { id: data.id, error: error instanceof Error ? error.message : String(error) };
  }
  // Typed with the page's lib (trendWorker.ts): a worker's postMessage takes the same options.
  self.postMessage(answer, { transfer: 'decoded' in answer ? transferOf(answer.decoded) : [] });
};
