import { Dialog, DialogBody, InputGroup, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { type MenuLeaf, searchMenus } from '../../app/menu';
import { useMenuLabel } from './menuLabel';
import { openMenu } from './Sidebar';

function Results({ results, onPick }: { results: MenuLeaf[]; onPick: () => void }) {
  const { t } = useLingui();
  const labelOf = useMenuLabel();
  return (
    <Menu className="vg-search-results">
      {results.length === 0 ? (
        <MenuItem disabled text={t`暂无数据`} />
      ) : (
        results.map(({ menu, link }) => (
          <MenuItem
            key={menu.id}
            icon="document"
            text={labelOf(menu)}
            label={link.startsWith('/myiframe') ? menu.path : link}
            onClick={() => {
              openMenu(menu, !menu.parentId || menu.parentId === '0');
              onPick();
            }}
          />
        ))
      )}
    </Menu>
  );
}

/** The menu search overlay: prefix match, ignoring case; Esc closes it. */
export function MenuSearch({ isOpen, onClose, leaves }: { isOpen: boolean; onClose: () => void; leaves: MenuLeaf[] }) {
  const { t } = useLingui();
  const labelOf = useMenuLabel();
  const [query, setQuery] = useState('');
  const close = () => {
    setQuery('');
    onClose();
  };
  return (
    <Dialog isOpen={isOpen} onClose={close} title={t`菜单搜索`} style={{ width: 560 }} canEscapeKeyClose>
      <DialogBody>
        <InputGroup
          autoFocus
          large
          leftIcon="search"
          name="menuSearch"
          placeholder={t`请输入搜索内容`}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        {query.trim() && <Results results={searchMenus(leaves, query, labelOf)} onPick={close} />}
      </DialogBody>
    </Dialog>
  );
}

/** The top bar's autocomplete over the same menus. */
export function TopSearch({ leaves }: { leaves: MenuLeaf[] }) {
  const { t } = useLingui();
  const labelOf = useMenuLabel();
  const [query, setQuery] = useState('');
  const open = query.trim().length > 0;
  return (
    <PopoverNext
      isOpen={open}
      autoFocus={false}
      enforceFocus={false}
      placement="bottom-start"
      onInteraction={(next) => !next && setQuery('')}
      content={<Results results={searchMenus(leaves, query, labelOf)} onPick={() => setQuery('')} />}
    >
      <InputGroup
        name="topSearch"
        leftIcon="search"
        placeholder={t`搜索菜单`}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && setQuery('')}
        style={{ width: 180 }}
      />
    </PopoverNext>
  );
}
