import { Query } from '@nestjs/cqrs';
import type { Statement } from '../../domain/statement';

/** The wallet's statement of UTC days (API.md, Wallet care): `from`/`to` as given, or the defaults. */
export class WalletStatement extends Query<Statement> {
  constructor(
    readonly walletId: string,
    readonly period: { readonly from?: string; readonly to?: string },
  ) {
    super();
  }
}
