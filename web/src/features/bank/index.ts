// The item bank feature's public face: what other features may use (eslint.config.js keeps them to it).
export { AddFromBank } from './AddFromBank';
export { SaveToBankButton } from './SaveToBankButton';
