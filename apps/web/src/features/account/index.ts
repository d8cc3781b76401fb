export { UserMenu, type MenuUser } from './components/user-menu';
