import { api, type LiabilityProof, type LiabilityRoot } from '@solpledge/contract/client'
import type { Inclusion } from '@solpledge/proof'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { call } from '../../../lib/api-client.ts'
import { assetsKeys } from './keys.ts'

/** The latest proof-of-liabilities snapshot (root, memo transaction, reserves at its slot), null before the first. */
export const getLiabilitiesRoot = () => call(api.liabilitiesRoot, {})

export const liabilitiesRootQueryOptions = () =>
  queryOptions({ queryKey: assetsKeys.liabilitiesRoot, queryFn: getLiabilitiesRoot, staleTime: 60_000 })

export function useLiabilitiesRoot() {
  useLiveRefresh('liabilities', liabilitiesRootQueryOptions().queryKey)
  return useQuery(liabilitiesRootQueryOptions())
}

/** The signed-in user's inclusion proof in a snapshot (the one whose root is shown beside it). */
export const getLiabilitiesProof = (snapshotId: string) => call(api.liabilitiesProof, { snapshot_id: snapshotId })

export const useLiabilitiesProof = (address: string, snapshotId: string) =>
  useQuery({
    queryKey: assetsKeys.liabilitiesProof(address, snapshotId),
    queryFn: () => getLiabilitiesProof(snapshotId),
    staleTime: Number.POSITIVE_INFINITY,
  })

/**
 * Verifies the proof in the browser, without the platform's API: @solpledge/proof recomputes the path to the root and
 * reads the memo transaction that published it from the chain's RPC endpoint. Loaded on demand (its own chunk). The
 * snapshot the page shows (its owed figures) must be that very root, or the check fails as a memo mismatch.
 */
export const useInclusion = (
  proof: LiabilityProof | undefined,
  shown: LiabilityRoot,
  address: string,
  rpcUrl: string,
) =>
  useQuery({
    queryKey: assetsKeys.inclusion(address, proof?.snapshot_id ?? '', proof?.signature ?? '', rpcUrl),
    queryFn: async (): Promise<Inclusion> => {
      const { nodeToJson, verifyInclusion } = await import('@solpledge/proof')
      const result = await verifyInclusion({ proof: proof as LiabilityProof, address, rpcUrl })
      if (!result.ok) return result
      const { hash, sums } = nodeToJson(result.root)
      const same =
        proof?.snapshot_id === shown.snapshot_id &&
        proof.signature === shown.signature &&
        hash === shown.root.hash &&
        sums.join() === shown.root.sums.join()
      if (same) return result
      return {
        ok: false,
        reason: 'memoMismatch',
        message: 'the snapshot shown is not the one the proof leads to and the chain published',
      }
    },
    enabled: proof !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
  })

/** Saves the proof file (the proof plus the address, what `npm run verify-proof` reads) as a download. */
export async function downloadProof(proof: LiabilityProof, address: string) {
  const { toProofFile } = await import('@solpledge/proof')
  const blob = new Blob([`${JSON.stringify(toProofFile(proof, address), null, 2)}\n`], { type: 'application/json' })
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = `solpledge-proof-${proof.snapshot_id}.json`
  link.click()
  // After the click has handed the file to the browser's download.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
