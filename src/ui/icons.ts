import { type IconName, type IconPaths, Icons, IconSize } from '@blueprintjs/icons';

/*
 * The icons the console draws by name, each its own tiny chunk per size. Blueprint's built-in loaders fetch all
 * ~600 icons of a size at once (about 100 kB gzip) and a glob over every icon puts a 50 kB table in the entry, so
 * the set is curated: the shell's icons and the seeded menu icons. A screen that needs another icon adds it here
 * (an unknown menu icon falls back to 'document').
 */
const paths16 = import.meta.glob<IconPaths>(
  '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/{add,application,arrow-down,arrow-up,bold,book,box,calculator,calendar,camera,caret-down,caret-right,cell-tower,chat,chevron-down,chevron-left,chevron-right,clipboard,cloud,code,code-block,cog,comparison,cross,cube,dashboard,database,delete,desktop,diagram-tree,disable,document,download,edit,error,exchange,export,eye-open,filter,flash,flows,folder-close,fullscreen,globe-network,hand-up,help,history,home,id-number,import,inbox,info-sign,italic,key,layers,link,list,lock,log-out,manual,map,map-marker,menu,menu-open,minimize,mobile-phone,more,notifications,notifications-updated,office,paperclip,path-search,people,person,pin,play,plus,projects,properties,pulse,refresh,route,satellite,search,send-message,send-to,send-to-graph,settings,shield,stop,style,swap-horizontal,tag,temperature,th,th-list,tick-circle,time,timeline-line-chart,tint,translate,trash,underline,undo,unlock,upload,variable,warning-sign,wrench}.js',
  { import: 'default' },
);
const paths20 = import.meta.glob<IconPaths>(
  '/node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/{error,help,info-sign,search,tick-circle,warning-sign}.js',
  { import: 'default' },
);

const keyOf = (name: string, size: string) => `/node_modules/@blueprintjs/icons/lib/esm/generated/${size}/paths/${name}.js`;

export function installIconLoader(): void {
  Icons.setLoaderOptions({
    loader: async (name: IconName, size: IconSize) => {
      const load = (size === IconSize.LARGE ? paths20[keyOf(name, '20px')] : undefined) ?? paths16[keyOf(name, '16px')];
      if (!load) throw new Error(`icon ${name} is not in src/ui/icons.ts`);
      return load();
    },
  });
}

/** Whether the console ships this icon (menu icons come from the server). */
export const hasIcon = (name: string): boolean => keyOf(name, '16px') in paths16;
