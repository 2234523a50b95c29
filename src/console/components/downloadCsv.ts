/** Offers `text` as a CSV file named `name` to the browser's downloads. */
export function downloadCsv(name: string, text: string) {
  // A BOM makes spreadsheet programs read the file as UTF-8.
  const blob = new Blob(['\uFEFF', text], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
