/** What other features may use of documents: they import it from here, never from its files (ARCHITECTURE.md). */
export { complianceReportPdf } from './compliance';
export { PdfFlow } from './pdf-flow';
export { setDocumentInfo, standardFonts } from './pdf-kit';
export { hasAnyAdminGrant } from './queries';
