/**
 * The aliases a request could match, by method, each with the literal start of its path: the
 * edge tries the regular expressions of those only, instead of every alias of every API in turn
 * (a hundred-odd regular expressions for a parcel's GET otherwise). Same order, same matches.
 */

interface IndexedAlias {
  fullPath: string;
  isMethod(method: string): boolean;
}

export interface Candidate<A> {
  alias: A;
  /** The path up to its first parameter or pattern, lower-cased (routes match case-insensitively). */
  prefix: string;
}

function literalPrefix(fullPath: string): string {
  const cut = fullPath.search(/[:*(?+]/);
  return (cut === -1 ? fullPath : fullPath.slice(0, cut)).toLowerCase();
}

export class AliasIndex<A extends IndexedAlias> {
  private source: readonly A[] | null = null;
  private length = -1;
  private readonly byMethod = new Map<string, Candidate<A>[]>();

  /** The aliases were sorted again in place. */
  invalidate(): void {
    this.source = null;
  }

  candidates(aliases: readonly A[], method: string): Candidate<A>[] {
    // moleculer-web replaces or pushes to the list when routes change: either shows here.
    if (aliases !== this.source || aliases.length !== this.length) {
      this.source = aliases;
      this.length = aliases.length;
      this.byMethod.clear();
    }
    let list = this.byMethod.get(method);
    if (!list) {
      list = aliases.filter(alias => alias.isMethod(method)).map(alias => ({ alias, prefix: literalPrefix(alias.fullPath) }));
      this.byMethod.set(method, list);
    }
    return list;
  }
}
