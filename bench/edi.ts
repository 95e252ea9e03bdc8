/** `npm run bench -- edi`: the order documents' benchmarks (issue 16). */
import { runEdiIngestBench } from './edi-ingest';
import { runEdiIngestDbBench } from './edi-ingest-db';

export async function runEdiBench(): Promise<void> {
  await runEdiIngestBench();
  await runEdiIngestDbBench();
}
