/**
 * The Catalog pages (features/catalog/pages) bound to their routes, loaded lazily. The
 * pages read their own search params; the item form gets its code from the path.
 */
import { useParams } from '@tanstack/react-router';
import { CharacteristicsPage } from '../features/catalog/pages/CharacteristicsPage.tsx';
import { ItemFormPage } from '../features/catalog/pages/ItemFormPage.tsx';
import { ItemsPage } from '../features/catalog/pages/ItemsPage.tsx';
import { SkillsPage } from '../features/catalog/pages/SkillsPage.tsx';

export const Items = () => <ItemsPage />;
export const ItemNew = () => <ItemFormPage />;
export function ItemEdit() {
  const { code } = useParams({ strict: false }) as { code: string };
  return <ItemFormPage key={code} code={code} />;
}
export const Skills = () => <SkillsPage />;
export const Characteristics = () => <CharacteristicsPage />;
