import type { EpcisXmlVersion } from '../../domain/epcis/xml/from-xml';

/** GS1's XSDs of each binding, as published (./schemas/<version>/); the query XSD imports the rest. */
export const XSD_SETS: Record<EpcisXmlVersion, { main: string; folder: string }> = {
  '2.0': { main: 'EPCglobal-epcis-query-2_0.xsd', folder: '2.0' },
  '1.2': { main: 'EPCglobal-epcis-query-1_2.xsd', folder: '1.2' },
};

/** A document to check against its version's XSD, in a thread of the pool. */
export interface XsdTask {
  text: string;
  version: EpcisXmlVersion;
}

/** One fault libxml2 found: its message and the line it is on (0 when it names none). */
export interface XsdIssue {
  message: string;
  line: number;
}
