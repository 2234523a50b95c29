declare module 'codes-postaux' {
  interface Commune {
    codePostal: string;
    codeCommune: string;
    nomCommune: string;
    libelleAcheminement: string;
  }
  export function find(postalCode: string | number): Commune[];
}
