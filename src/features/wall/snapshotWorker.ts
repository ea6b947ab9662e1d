import { type LoadAnswer, type LoadRequest, loadSnapshot, transferOf } from '../../../streams/screenSnapshot';

/** The wall screen's snapshot worker (snapshotLoader.ts): fetches, decodes and takes apart the snapshot off the page. */
self.onmessage = async ({ data }: MessageEvent<LoadRequest>) => {
  let answer: LoadAnswer;
  try {
    answer = { id: data.id, decoded: await loadSnapshot(data) };
  } catch (error) {
    answer = { id: data.id, error: error instanceof Error ? error.message : String(error) };
  }
  // Typed with the page's lib (trendWorker.ts): a worker's postMessage takes the same options.
  self.postMessage(answer, { transfer: 'decoded' in answer ? transferOf(answer.decoded) : [] });
};
