import { DropdownMenu } from 'radix-ui'

/** Radix's menu, loaded with the first menu a page opens (ui/dropdown-menu.tsx). */
export const MenuRoot = DropdownMenu.Root
export const MenuTrigger = DropdownMenu.Trigger
export const MenuPortal = DropdownMenu.Portal
export const MenuContent = DropdownMenu.Content
export const MenuItem = DropdownMenu.Item
export const MenuSeparator = DropdownMenu.Separator
