import { createOrderBodySchema, type CreateOrderBody } from '../../../shared/orders';
import {
  GROUP_ERROR,
  SET_ERROR,
  type GroupErrorCode,
  type SegmentFault,
  type SetFault,
} from '../x12/codes';
import type { ReadGroup, ReadResult, ReadSet } from '../x12/reader';
import {
  build997,
  groupAckStatus,
  type GroupAckStatus,
  type SetAckInput,
  type SetAckStatus,
} from './ack-997';
import { map850, type PoLine, type PoPurpose } from './map-850';
import { map860, type Mapped860 } from './map-860';
import { map997, type Mapped997 } from './map-997';

/**
 * What to do with one received interchange, decided without the database: per transaction set
 * its status and the order, change or acknowledgment it carries; per group the 997 to send back.
 * The caller (the ingest command) writes it down in one transaction.
 *
 * Two kinds of trouble are kept apart. X12 faults (envelope, counts, segments and elements the
 * mapping cannot read) go into the 997. Business refusals (an unknown facility, an order body
 * the create rules refuse, a duplicate) leave the 997 as the syntax says and reject the set in
 * our own records, in clerk words: a 997 acknowledges syntax only.
 */

/** The connection the interchange arrived on (DESIGN: ISA06 = receiver_id, ISA08 = sender_id). */
export interface InboundConnection {
  /** Our ID in the retailer's eyes (`edi.sender_id`), the interchange's receiver (ISA08). */
  sender_id: string;
  /** The retailer's ID (`edi.receiver_id`), the interchange's sender (ISA06). */
  receiver_id: string;
  brand_id: string;
  retailer_id: string;
  /** `order_documents.facility_id`: where a PO goes when it names no known facility. */
  facility_id: string | null;
}

export interface KnownFacility {
  id: string;
  external_facility_code: string | null;
}

export interface IngestInput {
  read: ReadResult;
  connection: InboundConnection;
  /** The facilities the brand works at, to find N1*SF/N1*WH N104. */
  facilities: KnownFacility[];
  /** This sender sent this ISA13 before (a DB lookup by the caller). */
  seenBefore: boolean;
  /** ST02 of each 997 (one per group; default 0001). */
  ackControlNumber?: (groupIndex: number) => string;
}

export type SetStatus = 'accepted' | 'rejected' | 'duplicate';

export type PlannedContent =
  | {
      kind: 'order';
      purpose: PoPurpose;
      /** A valid create body for `original`; the parsed fields for the others. */
      body: CreateOrderBody | null;
      /** Per PO line: its id, unit price and unit, for the 855 and 810. */
      lines: PoLine[];
    }
  | { kind: 'change'; change: Mapped860 }
  | { kind: 'acknowledgment'; acknowledgment: Mapped997 };

export interface PlannedSet {
  type: string;
  control_number: string;
  status: SetStatus;
  po_number: string | null;
  content: PlannedContent | null;
  /** What is wrong, in clerk words (X12 faults and business refusals alike). */
  errors: string[];
  /** The X12 faults, as the 997 reports them. */
  faults: SegmentFault[];
  set_faults: SetFault[];
}

export interface PlannedGroup {
  functional_id: string;
  control_number: string;
  /** The 997 for this group; null for a group of 997s (never acknowledged) or a refused file. */
  ack: string[][] | null;
  ack_status: GroupAckStatus | null;
  errors: string[];
  sets: PlannedSet[];
}

export interface IngestPlan {
  interchange_control_number: string | null;
  /** ISA05/ISA06 and ISA08 as sent: with ISA13, the key of duplicate detection. */
  sender_qualifier: string | null;
  sender_id: string | null;
  receiver_id: string | null;
  test: boolean;
  duplicate: boolean;
  /** Why the whole file is refused (no 997 is sent), or null. */
  refused: string | null;
  /** Faults of the interchange envelope, in clerk words. */
  errors: string[];
  groups: PlannedGroup[];
}

/** GS01 → the one set type such a group may hold. */
const SET_TYPE_OF_GROUP: Record<string, string> = { PO: '850', PC: '860', FA: '997' };
/** X12 4010 up to 5010 (GS08 like 004010, 004010VICS, 005010). */
const SUPPORTED_VERSION = /^00(40[1-6]|50[1-5])0/;

export function planIngest(input: IngestInput): IngestPlan {
  const { read, connection } = input;
  const interchange = read.interchange;
  const errors = read.faults.map((fault) => fault.message);
  if (!interchange) {
    return {
      interchange_control_number: null,
      sender_qualifier: null,
      sender_id: null,
      receiver_id: null,
      test: false,
      duplicate: false,
      refused: errors.join('; ') || 'The file is not an X12 interchange',
      errors,
      groups: [],
    };
  }
  const plan: IngestPlan = {
    interchange_control_number: interchange.control,
    sender_qualifier: interchange.senderQualifier,
    sender_id: interchange.senderId,
    receiver_id: interchange.receiverId,
    test: interchange.testIndicator === 'T',
    duplicate: input.seenBefore,
    refused: null,
    errors,
    groups: [],
  };
  if (
    interchange.senderId !== connection.receiver_id ||
    interchange.receiverId !== connection.sender_id
  ) {
    plan.refused =
      `The interchange is from "${interchange.senderId}" to "${interchange.receiverId}"; this ` +
      `connection takes files from "${connection.receiver_id}" to "${connection.sender_id}"`;
  }
  if (interchange.groups.length === 0) {
    plan.refused = [...errors, 'The interchange holds no functional group (GS)'].join('; ');
  }
  const envelopeBroken = read.faults.length > 0;
  interchange.groups.forEach((group, index) => {
    plan.groups.push(
      planGroup(group, {
        ...input,
        envelopeBroken,
        refused: plan.refused,
        ackControlNumber: input.ackControlNumber?.(index) ?? '0001',
      }),
    );
  });
  return plan;
}

interface GroupContext extends Omit<IngestInput, 'ackControlNumber'> {
  envelopeBroken: boolean;
  refused: string | null;
  ackControlNumber: string;
}

function planGroup(group: ReadGroup, context: GroupContext): PlannedGroup {
  const groupCodes: GroupErrorCode[] = group.faults.map((fault) => fault.code);
  const errors = group.faults.map((fault) => fault.message);
  const setType = SET_TYPE_OF_GROUP[group.functionalId];
  if (!setType) {
    groupCodes.push(GROUP_ERROR.notSupported);
    errors.push(`Groups of type "${group.functionalId}" are not taken (PO, PC or FA)`);
  } else if (!SUPPORTED_VERSION.test(group.version)) {
    groupCodes.push(GROUP_ERROR.versionNotSupported);
    errors.push(`X12 version "${group.version}" is not taken (004010 to 005010)`);
  }
  if (context.envelopeBroken) {
    errors.push('The interchange envelope is broken (see the file errors): nothing was taken in');
  }
  const rejected = groupCodes.length > 0 || context.envelopeBroken;
  const sets = group.sets.map((set) => planSet(set, setType ?? null, context));
  const acks: SetAckInput[] = sets.map((set) => ({
    // An unreadable ST01 is answered as the set type the group holds (AK201 is mandatory).
    id: set.type || setType || '',
    control: set.control_number,
    status: setAckStatus(set),
    setCodes: set.set_faults.map((fault) => fault.code),
    segmentFaults: set.faults,
  }));
  const ackInput = {
    functionalId: group.functionalId,
    control: group.control,
    declaredSetCount: group.declaredSetCount,
    sets: acks,
    groupCodes,
    rejected,
  };
  for (const [i, set] of sets.entries()) {
    if (context.refused) {
      set.status = 'rejected';
      set.errors.push(context.refused);
    } else if (context.seenBefore) {
      // Nothing of a repeated interchange is taken in, whatever its sets say.
      set.status = 'duplicate';
      set.errors.push(
        'This interchange was received before (same sender and ISA13): nothing was taken in again',
      );
    } else if (set.status === 'accepted' && (rejected || acks[i]!.status === 'R')) {
      set.status = 'rejected';
    }
  }
  // A group of 997s is never answered with a 997; a refused file is not answered at all; a
  // group whose GS01 or GS06 cannot be read cannot be named in an AK1.
  const nameable = /^[A-Z]{2}$/.test(group.functionalId) && /^\d{1,9}$/.test(group.control);
  if (!nameable) {
    errors.push('The group cannot be acknowledged: its GS01 or GS06 cannot be read');
  }
  const answered = group.functionalId !== 'FA' && !context.refused && nameable;
  return {
    functional_id: group.functionalId,
    control_number: group.control,
    ack: answered ? build997(ackInput, { controlNumber: context.ackControlNumber }) : null,
    ack_status: answered ? groupAckStatus(ackInput).status : null,
    errors,
    sets,
  };
}

function setAckStatus(set: PlannedSet): SetAckStatus {
  if (set.set_faults.length > 0 || set.faults.some((fault) => fault.severity === 'reject')) {
    return 'R';
  }
  return set.faults.length > 0 ? 'E' : 'A';
}

function planSet(set: ReadSet, expectedType: string | null, context: GroupContext): PlannedSet {
  const planned: PlannedSet = {
    type: set.id,
    control_number: set.control,
    status: 'accepted',
    po_number: null,
    content: null,
    errors: [],
    faults: [...set.segmentFaults],
    set_faults: [...set.setFaults],
  };
  const unreadableId = set.setFaults.some((f) => f.code === SET_ERROR.invalidSetIdentifier);
  if (expectedType !== null && set.id !== expectedType && !unreadableId) {
    planned.set_faults.push({
      code: SET_ERROR.notSupported,
      message: `A ${set.id} cannot be in a group of ${expectedType}s`,
    });
  } else if (set.id === '850') {
    mapOrder(set, planned, context);
  } else if (set.id === '860') {
    const change = map860(set);
    planned.po_number = change.po_number;
    planned.faults.push(...change.faults);
    planned.content = { kind: 'change', change };
  } else if (set.id === '997') {
    const acknowledgment = map997(set);
    planned.faults.push(...acknowledgment.faults);
    planned.content = { kind: 'acknowledgment', acknowledgment };
  }
  if (
    planned.faults.some((fault) => fault.severity === 'reject') &&
    planned.set_faults.length === 0
  ) {
    planned.set_faults.push({ code: SET_ERROR.segmentsInError, message: 'Segments are in error' });
  }
  planned.errors.unshift(
    ...planned.set_faults
      .filter((fault) => fault.code !== SET_ERROR.segmentsInError)
      .map((fault) => fault.message),
    ...planned.faults.map((fault) => fault.message),
  );
  if (planned.set_faults.length > 0) planned.status = 'rejected';
  return planned;
}

function mapOrder(set: ReadSet, planned: PlannedSet, context: GroupContext) {
  const mapped = map850(set);
  planned.po_number = mapped.po_number;
  planned.faults.push(...mapped.faults);
  if (!mapped.purpose) return;
  const content: Extract<PlannedContent, { kind: 'order' }> = {
    kind: 'order',
    purpose: mapped.purpose,
    body: null,
    lines: mapped.lines,
  };
  planned.content = content;
  // A set the 997 rejects is not looked at as an order (its faults say enough).
  if (planned.set_faults.length > 0 || mapped.faults.some((f) => f.severity === 'reject')) return;
  if (mapped.purpose === 'duplicate') {
    planned.status = 'duplicate';
    planned.errors.push('The retailer sent this PO as a duplicate (BEG01 07): nothing is created');
    return;
  }
  if (mapped.purpose !== 'original') return; // a cancellation names the PO; the caller cancels it
  const facility = facilityFor(mapped.facility_code, context);
  if ('refused' in facility) {
    planned.status = 'rejected';
    planned.errors.push(facility.refused);
    return;
  }
  const parsed = createOrderBodySchema.safeParse({
    ...mapped.order,
    brand_id: context.connection.brand_id,
    retailer_id: context.connection.retailer_id,
    facility_id: facility.id,
    picksheet_code: mapped.po_number,
  });
  if (!parsed.success) {
    planned.status = 'rejected';
    planned.errors.push(
      ...parsed.error.issues.map(
        (issue) =>
          `The order cannot be created: ${issue.path.join('.') || 'body'} ${issue.message}`,
      ),
    );
    return;
  }
  content.body = parsed.data;
}

/**
 * N1*SF/N1*WH N104 when it is a facility's code, else the connection's order facility (only one
 * of the brand's facilities in the connection's organisation). (Many
 * retailers put the vendor's DUNS in N1*SF, which names no facility of ours: that is no error.)
 */
function facilityFor(
  code: string | null,
  context: GroupContext,
): { id: string } | { refused: string } {
  const found =
    code === null
      ? undefined
      : context.facilities.find((facility) => facility.external_facility_code === code);
  if (found) return { id: found.id };
  // The setting is trusted only as far as the stored rows go: a facility outside the brand's
  // facilities in the connection's organisation is no order facility.
  const fallback = context.connection.facility_id;
  if (fallback && context.facilities.some((facility) => facility.id === fallback)) {
    return { id: fallback };
  }
  if (fallback) {
    return {
      refused: `The connection's order facility is not a facility of the brand in its organisation; no order was made`,
    };
  }
  return {
    refused:
      code === null
        ? 'The PO names no warehouse (N1*SF or N1*WH) and the connection has no order facility'
        : `The PO names warehouse "${code}", which is no facility's code, and the connection has no order facility`,
  };
}
