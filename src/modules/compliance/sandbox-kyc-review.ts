import type { DocumentStatus } from 'src/modules/documents/entities/document.entity';

export const KYC_REJECTION_REASONS = [
  'identity_not_verified',
  'document_rejected',
  'rejected_in_review',
] as const;
export type KycRejectionReason = (typeof KYC_REJECTION_REASONS)[number];

export type KycDecision =
  | { outcome: 'approved' }
  | { outcome: 'rejected'; reasons: KycRejectionReason[] }
  | { outcome: 'manual_review' };

/**
 * The sandbox's automatic KYC decision, from the data alone:
 * - last name `Reject` (any case) → rejected (`identity_not_verified`);
 * - a document rejected in this review → rejected (`document_rejected`);
 * - a politically exposed person → left in manual review (PENDING_APPROVAL) for a test helper;
 * - otherwise approved.
 */
export function sandboxKycDecision(
  holder: { last_name: string; is_politically_exposed: boolean },
  reviewedDocuments: ReadonlyArray<{ status: DocumentStatus }>,
): KycDecision {
  const reasons: KycRejectionReason[] = [];
  if (holder.last_name.trim().toLowerCase() === 'reject') {
    reasons.push('identity_not_verified');
  }
  if (reviewedDocuments.some((d) => d.status === 'rejected')) {
    reasons.push('document_rejected');
  }
  if (reasons.length > 0) {
    return { outcome: 'rejected', reasons };
  }
  return holder.is_politically_exposed ? { outcome: 'manual_review' } : { outcome: 'approved' };
}
