// The check digits of the document and account numbers the deposit gateway's rules name: Chile's
// RUT, Brazil's CPF and Mexico's CLABE. Pure arithmetic, shared by validation and its tests.

/** A CPF as the provider takes it: 11 digits, without dots or dashes. */
export const CPF = /^[0-9]{11}$/;
/** A CLABE: 18 digits. */
export const CLABE = /^[0-9]{18}$/;

/** Chilean RUT check digit: modulo 11 with weights 2..7 from the right; 10 is K, 11 is 0. */
export function rutCheckDigit(body: string): string {
  let sum = 0;
  let weight = 2;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += Number(body[i]) * weight;
    weight = weight === 7 ? 2 : weight + 1;
  }
  const digit = 11 - (sum % 11);
  return digit === 11 ? '0' : digit === 10 ? 'K' : String(digit);
}

/** Brazilian CPF: two modulo-11 check digits; eleven equal digits pass the arithmetic but are invalid. */
export function isValidCpf(cpf: string): boolean {
  if (!CPF.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  const digits = [...cpf].map(Number);
  for (const length of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += digits[i]! * (length + 1 - i);
    const check = ((sum * 10) % 11) % 10;
    if (check !== digits[length]) return false;
  }
  return true;
}

/** Mexican CLABE: weights 3, 7, 1 over the first 17 digits; the 18th makes the sum a multiple of 10. */
export function isValidClabe(clabe: string): boolean {
  if (!CLABE.test(clabe)) return false;
  const weights = [3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (Number(clabe[i]) * weights[i % 3]!) % 10;
  return (10 - (sum % 10)) % 10 === Number(clabe[17]);
}
