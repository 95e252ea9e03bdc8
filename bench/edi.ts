/** `npm run bench -- edi`: the order documents' benchmarks (issue 16). */
import { runEdiIngestBench } from './edi-ingest';
import { runEdiIngestDbBench } from './edi-ingest-db';
import { runEdiOutboundBench } from './edi-outbound';

export async function runEdiBench(): Promise<void> {
  await runEdiIngestBench();
  await runEdiIngestDbBench();
  await runEdiOutboundBench();
}
