// A JSON number with a fraction or an exponent, as the sandboxes read it: kept as its source text,
// so a request can be refused exactly and an echoed value (metadata) written back as it came, and
// so the state file can keep it across a restart. The sandboxes' own, apart from the adapters'.

export class FractionalNumber {
  constructor(readonly source: string) {}
}
