export { DataRights } from './components/data-rights';
export { UserMenu, type MenuUser } from './components/user-menu';
